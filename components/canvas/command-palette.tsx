"use client";
/**
 * Ctrl/Cmd+K: one searchable list to add any node type, jump to any node (selects and centres it), and run
 * the editor's actions — everything reachable from the keyboard.
 */
import { Command } from "cmdk";
import { CornerDownLeft, type LucideIcon } from "lucide-react";
import { useRef, useState, type KeyboardEvent } from "react";
import { NODE_TYPES, type NodeType, type WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import { Dialog } from "../ui/dialog";
import { Kbd } from "../ui/kbd";
import { nodeDisplayName } from "./canvas-document";
import { NODE_CATALOG } from "./node-catalog";
import { pickEntry } from "./palette-pick";

/** An action of the palette. */
export interface PaletteAction {
  readonly id: string;
  readonly label: string;
  readonly icon: LucideIcon;
  readonly hint?: string;
  readonly disabled?: boolean;
  readonly run: () => void;
}

/** Props: open state, the nodes to jump to, and what each entry does. */
export interface CommandPaletteProps {
  open: boolean;
  onClose: () => void;
  nodes: readonly WorkflowNode[];
  actions: readonly PaletteAction[];
  canAdd: boolean;
  onAdd: (type: NodeType) => void;
  onJump: (nodeId: string) => void;
}

const itemClasses =
  "flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm text-ink aria-disabled:cursor-not-allowed aria-disabled:opacity-50 data-[selected=true]:bg-accent-soft data-[selected=true]:text-ink";

/** The cmdk value (what the search matches) of each kind of row. */
const actionValue = (action: PaletteAction) => `action ${action.label}`;
const addValue = (type: NodeType) => `add ${NODE_CATALOG[type].title} ${NODE_CATALOG[type].blurb}`;
const jumpValue = (node: WorkflowNode) => `go ${nodeDisplayName(node)} ${node.id}`.trim();

/** Keys with which cmdk moves the highlight (Ctrl+N/J/P/K too). */
const NAVIGATION_KEYS = new Set(["ArrowDown", "ArrowUp", "Home", "End"]);

/** The palette dialog. */
export function CommandPalette({ open, onClose, nodes, actions, canAdd, onAdd, onJump }: CommandPaletteProps) {
  const [highlighted, setHighlighted] = useState<string>("");
  const highlight = useRef<{ value: string | undefined; chosenFor: string | null }>({ value: undefined, chosenFor: null });
  const close = () => {
    highlight.current = { value: undefined, chosenFor: null };
    setHighlighted("");
    onClose();
  };
  const choose = (run: () => void) => {
    close();
    run();
  };
  const entries = [
    ...actions.map((action) => ({ value: actionValue(action), disabled: action.disabled ?? false, run: action.run })),
    ...(canAdd ? NODE_TYPES.map((type) => ({ value: addValue(type), disabled: false, run: () => onAdd(type) })) : []),
    ...nodes.map((node) => ({ value: jumpValue(node), disabled: false, run: () => onJump(node.id) })),
  ];
  const moveHighlight = (value: string) => {
    highlight.current.value = value;
    setHighlighted(value);
  };
  const userMoves = (text: string) => {
    highlight.current.chosenFor = text;
  };
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const text = event.currentTarget.value;
    if (NAVIGATION_KEYS.has(event.key) || (event.ctrlKey && "njpk".includes(event.key))) userMoves(text);
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    // Decide from the text typed so far, not from cmdk's highlight, which may still be an earlier prefix's.
    event.preventDefault();
    const picked = pickEntry(entries, text, highlight.current);
    if (picked !== undefined) choose(picked.run);
  };
  return (
    <Dialog open={open} onClose={close} title="Command palette" size="md" testId="command-palette">
      <Command label="Command palette" className="-mx-2 -my-1" loop value={highlighted} onValueChange={moveHighlight}>
        <Command.Input onKeyDown={keyDown} autoFocus data-autofocus placeholder="Add a node, jump to a node, or run an action…" className="mb-2 w-full rounded-md border border-line bg-surface px-2.5 py-2 text-sm text-ink placeholder:text-faint focus:outline-none focus-visible:ring-2 focus-visible:ring-focus" data-testid="command-input" />
        <Command.List className="max-h-[50dvh] overflow-y-auto" onPointerMove={(event) => userMoves(inputText(event.currentTarget))}>
          <Command.Empty className="px-2 py-6 text-center text-sm text-muted">Nothing matches.</Command.Empty>
          <Command.Group heading="Actions" className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-[11px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-faint [&_[cmdk-group-heading]]:uppercase">
            {actions.map((action) => {
              const Icon = action.icon;
              return (
                <Command.Item key={action.id} value={actionValue(action)} disabled={action.disabled ?? false} onSelect={() => choose(action.run)} className={itemClasses} data-testid={`command-${action.id}`}>
                  <Icon className="size-4 text-muted" aria-hidden="true" />
                  <span className="flex-1">{action.label}</span>
                  {action.hint ? <Kbd>{action.hint}</Kbd> : null}
                </Command.Item>
              );
            })}
          </Command.Group>
          {canAdd ? (
            <Command.Group heading="Add node" className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-[11px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-faint [&_[cmdk-group-heading]]:uppercase">
              {NODE_TYPES.map((type) => {
                const info = NODE_CATALOG[type];
                const Icon = info.icon;
                return (
                  <Command.Item key={type} value={addValue(type)} onSelect={() => choose(() => onAdd(type))} className={itemClasses} data-testid={`command-add-${type}`}>
                    <Icon className="size-4" style={{ color: info.tone }} aria-hidden="true" />
                    <span className="flex-1">Add {info.title}</span>
                    <span className="truncate text-xs text-faint">{info.blurb}</span>
                  </Command.Item>
                );
              })}
            </Command.Group>
          ) : null}
          {nodes.length > 0 ? (
            <Command.Group heading="Go to node" className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-[11px] [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-faint [&_[cmdk-group-heading]]:uppercase">
              {nodes.map((node) => {
                const info = NODE_CATALOG[node.type];
                const Icon = info.icon;
                return (
                  <Command.Item key={node.id} value={jumpValue(node)} onSelect={() => choose(() => onJump(node.id))} className={itemClasses} data-testid={`command-jump-${node.id}`}>
                    <Icon className="size-4" style={{ color: info.tone }} aria-hidden="true" />
                    <span className="min-w-0 flex-1 truncate">{nodeDisplayName(node)}</span>
                    <span className="font-mono text-xs text-faint">{node.id}</span>
                    <CornerDownLeft className="size-3 text-faint" aria-hidden="true" />
                  </Command.Item>
                );
              })}
            </Command.Group>
          ) : null}
        </Command.List>
      </Command>
    </Dialog>
  );
}

/** The palette input's text, from any element inside the palette. */
function inputText(inside: Element): string {
  const input = inside.closest("[cmdk-root]")?.querySelector("input[cmdk-input]");
  return input instanceof HTMLInputElement ? input.value : "";
}
