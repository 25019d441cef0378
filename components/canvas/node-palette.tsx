"use client";
/**
 * The left panel: every node type, grouped, to drag onto the canvas (or press Enter / click to add it at the
 * centre of the view, so the palette works without a mouse), with a filter box.
 */
import { Search } from "lucide-react";
import { useState } from "react";
import { NODE_TYPES, type NodeType } from "../../runtime/workflow-spec/workflow-spec";
import { inputClasses } from "../ui/field";
import { PALETTE_MIME } from "./canvas-flow";
import { NODE_CATALOG } from "./node-catalog";

const GROUPS = ["Flow", "Models", "Attachments", "Control"] as const;

/** Props: add a node at the centre of the view (keyboard and click). */
export interface NodePaletteProps {
  onAdd: (type: NodeType) => void;
  disabled: boolean;
}

/** The palette. */
export function NodePalette({ onAdd, disabled }: NodePaletteProps) {
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const visible = NODE_TYPES.filter((type) => needle === "" || `${NODE_CATALOG[type].title} ${NODE_CATALOG[type].blurb}`.toLowerCase().includes(needle));
  return (
    <nav aria-label="Node palette" className="flex h-full min-h-0 flex-col" data-testid="node-palette">
      <div className="relative p-2">
        <Search className="pointer-events-none absolute top-1/2 left-4 size-3.5 -translate-y-1/2 text-faint" aria-hidden="true" />
        <input aria-label="Filter node types" placeholder="Filter nodes" className={`${inputClasses()} pl-7 text-xs`} value={filter} onChange={(event) => setFilter(event.target.value)} />
      </div>
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto px-2 pb-3">
        {GROUPS.map((group) => {
          const types = visible.filter((type) => NODE_CATALOG[type].group === group);
          if (types.length === 0) return null;
          return (
            <section key={group} aria-label={group}>
              <h3 className="px-1 pb-1 text-[11px] font-semibold tracking-wide text-faint uppercase">{group}</h3>
              <ul className="space-y-1">
                {types.map((type) => {
                  const info = NODE_CATALOG[type];
                  const Icon = info.icon;
                  return (
                    <li key={type}>
                      <button
                        type="button"
                        draggable={!disabled}
                        disabled={disabled}
                        data-testid={`palette-${type}`}
                        onDragStart={(event) => {
                          event.dataTransfer.setData(PALETTE_MIME, type);
                          event.dataTransfer.effectAllowed = "copy";
                        }}
                        onClick={() => onAdd(type)}
                        title={`Drag onto the canvas, or click to add ${info.title}`}
                        className="group flex w-full cursor-grab items-center gap-2.5 rounded-lg border border-transparent px-2 py-1.5 text-left hover:border-line hover:bg-surface active:cursor-grabbing disabled:cursor-not-allowed disabled:opacity-50"
                      >
                        <span className="grid size-7 shrink-0 place-items-center rounded-md" style={{ color: info.tone, background: `color-mix(in oklab, ${info.tone} 14%, transparent)` }} aria-hidden="true">
                          <Icon className="size-3.5" />
                        </span>
                        <span className="min-w-0">
                          <span className="block text-[13px] leading-tight font-medium text-ink">{info.title}</span>
                          <span className="block truncate text-[11px] leading-tight text-faint">{info.blurb}</span>
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })}
        {visible.length === 0 ? <p className="px-1 text-xs text-faint">No node type matches “{filter}”.</p> : null}
      </div>
    </nav>
  );
}
