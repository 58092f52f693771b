import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { allPermissions } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { usersApi, type RoleSummary } from '../api/users-api.ts';
import { permissionParts, useRoleText } from '../role-text.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';

type FieldErrors = Record<string, string[]> | null;

/** The catalogue grouped by area, in catalogue order: one row of the matrix per area. */
const matrix: Array<{ resource: string; permissions: string[] }> = [];
for (const permission of allPermissions) {
  const resource = permissionParts(permission)![0];
  const row = matrix.find((r) => r.resource === resource);
  if (row) row.permissions.push(permission);
  else matrix.push({ resource, permissions: [permission] });
}

/** Field errors of a 400 problem-details answer, or null when the failure is something else. */
function fieldErrorsOf(error: unknown): FieldErrors {
  const problem = error as { errors?: Record<string, string[]> } | null;
  return problem && typeof problem === 'object' && problem.errors && typeof problem.errors === 'object' ? problem.errors : null;
}

const areaRow = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '12rem 1fr' },
  gap: '2',
  py: '2',
  borderTopWidth: '1px',
  borderColor: 'border',
  '& legend': { float: 'left', fontWeight: 'semibold', fontSize: 'sm' },
});

/**
 * Create or edit a custom role (issue 23): name, description and a permission matrix, one row
 * per area. Permissions the signed-in user does not hold are shown but cannot be ticked (the
 * server refuses them too, with 403). A taken name comes back as a field error (400); a seeded
 * or out-of-reach role as the dialog's error (409 / 403), in the server's words.
 */
export function RoleDialog({ role, onClose, onSaved }: { role: RoleSummary | null; onClose: () => void; onSaved: (role: RoleSummary) => void }) {
  const { t } = useTranslation('users');
  const text = useRoleText();
  const held = useStoreValue(userPermissionsStore, (s) => s.context.permissions);
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [picked, setPicked] = useState<Set<string>>(() => new Set(role?.permissions ?? []));
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);

  const toggle = (permission: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });

  const save = async () => {
    const found: Record<string, string[]> = {};
    if (!name.trim()) found.name = [t('roleAdmin.nameRequired')];
    if (picked.size === 0) found.permissions = [t('roleAdmin.nonePicked')];
    if (Object.keys(found).length) {
      setErrors(found);
      return;
    }
    setErrors(null);
    setFailure(null);
    setBusy(true);
    // Catalogue order, so the request reads like the matrix.
    const body = { name: name.trim(), description: description.trim(), permissions: allPermissions.filter((p) => picked.has(p)) };
    try {
      const saved = role ? await usersApi.editRole(role.id, body) : await usersApi.createRole(body);
      void notify.success(role ? t('roleAdmin.saved', { name: saved.name }) : t('roleAdmin.created', { name: saved.name }));
      storeRecord('role', saved);
      onSaved(saved);
    } catch (error) {
      failRecord('role');
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      setFailure(fields ? null : error);
    } finally {
      setBusy(false);
    }
  };

  const permissionsError = fieldError(errors, 'permissions');
  return (
    <Dialog
      title={role ? t('roleAdmin.editTitle', { name: role.name }) : t('roleAdmin.createTitle')}
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      size="lg"
      testId="role-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <TextField
          label={t('roleAdmin.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(errors, 'name')}
          required
          maxLength={60}
        />
        <TextAreaField
          label={t('roleAdmin.description')}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          rows={2}
          maxLength={500}
          error={fieldError(errors, 'description')}
        />
        <div role="group" aria-labelledby="role-matrix-title" data-testid="permission-matrix">
          <h3 id="role-matrix-title" className={css({ fontWeight: 'semibold', mb: '1' })}>
            {t('roleAdmin.matrix')}
          </h3>
          {matrix.map((row) => (
            <fieldset key={row.resource} className={areaRow}>
              <legend>{text.resourceName(row.resource)}</legend>
              <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
                {row.permissions.map((permission) => {
                  const grantable = held.includes(permission);
                  return (
                    <span key={permission} title={grantable ? undefined : t('roleAdmin.notHeld')}>
                      <Checkbox
                        checked={picked.has(permission)}
                        disabled={!grantable}
                        onChange={(on) => toggle(permission, on)}
                        testId={`permission-${permission}`}
                      >
                        <span className={css({ srOnly: true })}>{text.resourceName(row.resource)}: </span>
                        {text.actionName(permission)}
                      </Checkbox>
                    </span>
                  );
                })}
              </div>
            </fieldset>
          ))}
          {permissionsError ? (
            <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
              {permissionsError.join(' ')}
            </p>
          ) : null}
          {allPermissions.some((permission) => !held.includes(permission)) ? (
            <p className={css({ fontSize: 'xs', color: 'fg.muted', mt: '2' })}>{t('roleAdmin.notHeld')}</p>
          ) : null}
        </div>
        {failureText ? (
          <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })} data-testid="dialog-error">
            {failureText}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
