import { Form } from '@remix-run/react';
import { TableScroll } from './table-scroll';

interface SettingChange {
  id: number;
  at: string;
  actorEmail: string;
  what: string;
}

/**
 * A setting's audit entries on /admin/settings (ADR 0055, 0062), each with the form that rolls
 * the setting back to what it was before that change.
 */
export function SettingChanges({
  label,
  testId,
  changes,
  rollbackIntent,
  rollbackLabel,
}: {
  label: string;
  testId: string;
  changes: SettingChange[];
  rollbackIntent: string;
  rollbackLabel: (at: string) => string;
}) {
  return (
    <TableScroll label={label}>
      <table aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Undo</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.id}>
              <td>{change.at}</td>
              <td>{change.actorEmail}</td>
              <td>{change.what}</td>
              <td>
                <Form method="post">
                  <input type="hidden" name="auditId" value={change.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={rollbackIntent}
                    className="button"
                    aria-label={rollbackLabel(change.at)}
                  >
                    Roll back
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
