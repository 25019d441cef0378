/** A share link that does not work (unknown, revoked or expired look the same): a plain 404, nothing about the run. */
import { Link2Off } from "lucide-react";
import { EmptyState } from "../../../components/ui/empty-state";

export default function ShareNotFound() {
  return (
    <main data-testid="share-not-found" className="mx-auto max-w-xl px-4 py-16">
      <EmptyState icon={Link2Off} title="This link does not work">
        It may have been revoked or have expired, or it was copied incompletely. Ask the person who shared it for a new link.
      </EmptyState>
    </main>
  );
}
