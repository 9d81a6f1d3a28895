// The trash: deleted memories still in the undo window, each restorable.
import { useState } from "preact/hooks";
import { tenant, unwrap } from "../api.ts";
import { href } from "../router.ts";
import { ConfirmDialog, Empty, fmtNum, Loading, Page, Pager, showStatus, Table, Time, truncate, useAction, useLoad } from "../ui.tsx";

const PAGE = 20;

export function TrashPage() {
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => unwrap(tenant.GET("/api/v1/trash", { params: { query: { limit: PAGE, offset } } })), [offset]);
  const [restored, setRestored] = useState<{ id: string; content: string } | null>(null);
  const [purging, setPurging] = useState(false);

  const [restore, restoring] = useAction(async (id: string) => {
    const m = await unwrap(tenant.POST("/api/v1/memories/{id}/restore", { params: { path: { id } } }));
    setRestored({ id: m.id, content: m.content });
    showStatus(`Restored: ${truncate(m.content, 80)}`);
    page.reload();
  });

  const [purge, purgeBusy] = useAction(async () => {
    const r = await unwrap(tenant.DELETE("/api/v1/trash", {}));
    setPurging(false);
    showStatus(`${fmtNum(r.erased_count)} memories erased for good.`);
    page.reload();
  });

  const data = page.data;
  return (
    <Page
      id="trash"
      title="Trash"
      ready={!page.loading}
      actions={
        data && data.total > 0 ? (
          <button type="button" class="danger" onClick={() => setPurging(true)}>
            Empty trash…
          </button>
        ) : undefined
      }
    >
      <p class="muted">Deleted memories stay restorable for the tenant's undo window, then they are erased.</p>
      {restored && (
        <p class="notice" data-testid="restored">
          Restored. <a href={href("memory", restored.id)}>Open “{truncate(restored.content, 60)}”</a>
        </p>
      )}
      {!data ? (
        page.loading ? <Loading what="the trash" /> : null
      ) : data.memories.length === 0 ? (
        <Empty>The trash is empty.</Empty>
      ) : (
        <>
          <Table
            testid="trash-table"
            caption="Deleted memories, latest deletion first"
            columns={["Content", "Tags", "Deleted", "Erased after", "Actions"]}
          >
            {data.memories.map((m) => (
              <tr key={m.id} data-memory-id={m.id}>
                <td>{truncate(m.content, 160)}</td>
                <td>{m.tags.join(", ")}</td>
                <td>
                  <Time iso={m.deleted_at} />
                </td>
                <td>
                  <Time iso={m.erased_after} />
                </td>
                <td>
                  <button
                    type="button"
                    onClick={() => void restore(m.id)}
                    disabled={restoring}
                    aria-label={`Restore “${truncate(m.content, 40)}”`}
                    data-testid="trash-restore"
                  >
                    Restore
                  </button>
                </td>
              </tr>
            ))}
          </Table>
          <Pager offset={offset} limit={PAGE} total={data.total} hasMore={data.has_more} onPage={setOffset} />
        </>
      )}
      <ConfirmDialog
        open={purging}
        title="Erase every deleted memory now?"
        confirmLabel="Erase for good"
        danger
        requireText="erase"
        busy={purgeBusy}
        onConfirm={() => void purge()}
        onClose={() => setPurging(false)}
      >
        <p>Nothing of them remains but ids, content hashes and event types in their history. Needs a key with the admin scope.</p>
      </ConfirmDialog>
    </Page>
  );
}
