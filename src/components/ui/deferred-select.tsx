import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { controlStyle } from './field.tsx';
import { selectRecipe } from './select-recipe.ts';
import type { SelectFieldProps } from './select.tsx';

type SelectModule = typeof import('./select.tsx');
let loaded: SelectModule | undefined;
let loading: Promise<SelectModule> | undefined;
const loadSelect = () => (loading ??= loadChunk(() => import('./select.tsx')).then((module) => (loaded = module)));

/** What the select shows until its code is here: the label and the chosen option's text, in the same boxes. */
function SelectPlaceholder({ label, value, options, placeholder, className, testId, layout, required }: SelectFieldProps) {
  const { t } = useTranslation('ui');
  const classes = selectRecipe({ layout });
  const text = options.find((option) => option.value === value)?.label ?? placeholder ?? t('choose');
  return (
    <div className={[classes.root, className].filter(Boolean).join(' ')} data-testid={testId} aria-busy="true">
      <span className={classes.label}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </span>
      <span className={[controlStyle, classes.trigger].join(' ')} aria-hidden="true">
        {text}
      </span>
    </div>
  );
}

/**
 * A SelectField of a list's first screen (filters, page size) whose Ark code loads once the
 * screen is on it, not before its heading (docs/decisions/0162): until then a look-alike shows
 * the label and the chosen value. A failed load is a ChunkLoadError for the error boundary.
 */
export function DeferredSelectField(props: SelectFieldProps) {
  const [module, setModule] = useState<SelectModule | undefined>(loaded);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    if (module) return;
    let live = true;
    loadSelect().then(
      (next) => live && setModule(next),
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, [module]);
  if (failure) throw failure;
  if (!module) return <SelectPlaceholder {...props} />;
  return <module.SelectField {...props} />;
}
