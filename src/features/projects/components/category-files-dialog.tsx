import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { dropRecord, failRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { FileUpload, useFormatBytes } from '#src/components/ui/file-upload.tsx';
import { LoadingState } from '#src/components/ui/states.tsx';
import { saveFile } from '#src/lib/save-file.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { projectsApi, type Category, type CategoryFile } from '../api/projects-api.ts';

const MAX_BYTES = 10 * 1024 * 1024;

/** The files filed under a category (images, audio, PDF, text; decision 0096): list, upload, download, delete. */
export function CategoryFilesDialog({
  projectId,
  category,
  canEdit,
  onClose,
}: {
  projectId: number;
  category: Category;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('projects');
  const [files, setFiles] = useState<CategoryFile[] | null>(null);
  const [chosen, setChosen] = useState<File[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const failureText = useErrorText(failure);
  const formatBytes = useFormatBytes();

  const load = useCallback(() => projectsApi.categoryFiles(projectId, category.categoryId).then(setFiles, setFailure), [projectId, category.categoryId]);
  useEffect(() => {
    void load();
  }, [load]);

  const send = async () => {
    if (!chosen.length) return;
    setBusy(true);
    setFailure(null);
    try {
      const added = await projectsApi.uploadCategoryFiles(category.categoryId, chosen);
      if (added.length) storeRecord('categoryFile', added[added.length - 1]);
      void notify.success(t('files.uploaded', { count: added.length }));
      setChosen([]);
      await load();
    } catch (error) {
      failRecord('categoryFile');
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const fetchFile = async (file: CategoryFile) => {
    try {
      const { blob, filename } = await projectsApi.downloadCategoryFile(file.fileId);
      saveFile(blob, filename ?? file.fileName);
      storeRecord('categoryFile', file);
    } catch (error) {
      failRecord('categoryFile');
      void notify.error(error);
    }
  };
  const remove = async (file: CategoryFile) => {
    try {
      await projectsApi.deleteCategoryFile(projectId, file.fileId);
      dropRecord('categoryFile', file.fileId);
      void notify.success(t('files.deleted', { name: file.fileName }));
      await load();
    } catch (error) {
      void notify.error(error);
    }
  };

  return (
    <Dialog
      title={t('files.title', { name: category.name })}
      onClose={onClose}
      testId="category-files-dialog"
      footer={<Button onClick={onClose}>{t('files.close')}</Button>}
    >
      {files === null && !failure ? (
        <LoadingState />
      ) : files && files.length === 0 ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t('files.none')}</p>
      ) : (
        <ul className={css({ display: 'grid', gap: '1', listStyle: 'none', p: 0, m: 0 })} data-testid="category-files">
          {(files ?? []).map((file) => (
            <li key={file.fileId} className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
              <span className={css({ flex: '1', minWidth: 0, overflowWrap: 'anywhere' })}>
                {file.fileName}{' '}
                <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                  ({file.contentType}, {formatBytes(file.sizeBytes)})
                </span>
              </span>
              <Button size="sm" variant="outline" onClick={() => void fetchFile(file)} aria-label={t('files.downloadNamed', { name: file.fileName })}>
                {t('files.download')}
              </Button>
              {canEdit ? (
                <Button size="sm" variant="ghost" onClick={() => void remove(file)} aria-label={t('files.deleteNamed', { name: file.fileName })}>
                  {t('categories.delete')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <div className={css({ display: 'grid', gap: '2', pt: '3' })}>
          <FileUpload
            label={t('files.choose')}
            hint={t('files.hint')}
            files={chosen}
            onChange={setChosen}
            maxFiles={5}
            maxBytes={MAX_BYTES}
            accept="image/*,audio/*,application/pdf,text/plain"
            disabled={busy}
          />
          <div>
            <Button onClick={() => void send()} loading={busy} disabled={!chosen.length} data-testid="upload-files">
              {t('files.upload')}
            </Button>
          </div>
        </div>
      ) : null}
      {failureText ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}
