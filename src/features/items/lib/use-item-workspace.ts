import { useEffect, useMemo, useState } from 'react';
import { projectStore } from '#src/app/stores/slices.ts';
import { projectsApi, type Category, type Flow, type ItemType } from '#src/features/projects/index.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { categoryOptions, categoryTree, type CategoryOption } from './category-tree.ts';
import type { TreeOption } from '#src/components/ui/tree-select.tsx';

/** The base content languages every board prints (en, hi, gu), then the project's others. */
export const BASE_LANGUAGES = ['en', 'hi', 'gu'] as const;

export function projectLanguages(project: Record<string, unknown> | null): string[] {
  const own = Array.isArray(project?.languages) ? (project.languages as unknown[]).filter((l): l is string => typeof l === 'string') : [];
  return [...BASE_LANGUAGES, ...own.filter((l) => !(BASE_LANGUAGES as readonly string[]).includes(l))];
}

export interface ItemWorkspace {
  project: Record<string, unknown> | null;
  projectId: number | null;
  languages: string[];
  categories: Category[];
  categoryOptions: CategoryOption[];
  /** The same categories nested, for the tree picker. */
  categoryTree: TreeOption[];
  itemTypes: ItemType[];
  /** Statuses of the project's item flows in their order: Draft, each stage, Approved, Retired (stage id → its name). */
  statuses: { value: string; name: string | null }[];
  /** The categories could not be read (the pickers then show none). */
  failed: boolean;
}

/** The selected project and what the item screens need of it: languages, category tree, item types. */
export function useItemWorkspace(): ItemWorkspace {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const projectId = typeof project?.projectId === 'number' ? project.projectId : null;
  const [categories, setCategories] = useState<Category[]>([]);
  const [itemTypes, setItemTypes] = useState<ItemType[]>([]);
  const [flows, setFlows] = useState<Flow[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    projectsApi.categories(projectId).then(
      (list) => live && setCategories(list),
      () => live && setFailed(true),
    );
    projectsApi.itemTypes(projectId).then(
      (list) => live && setItemTypes(list),
      () => undefined,
    );
    projectsApi.flows(projectId).then(
      (list) => live && setFlows(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [projectId]);
  const options = useMemo(() => categoryOptions(categories), [categories]);
  const tree = useMemo(() => categoryTree(categories), [categories]);
  const languages = useMemo(() => projectLanguages(project), [project]);
  const statuses = useMemo(() => {
    const stages = flows.filter((f) => f.recordKind === 'item').flatMap((f) => f.definition.stages);
    const seen = new Set<string>();
    const list: { value: string; name: string | null }[] = [{ value: 'Draft', name: null }];
    for (const stage of stages) {
      if (seen.has(stage.id)) continue;
      seen.add(stage.id);
      list.push({ value: stage.id, name: stage.name });
    }
    return [...list, { value: 'Approved', name: null }, { value: 'Retired', name: null }];
  }, [flows]);
  return { project, projectId, languages, categories, categoryOptions: options, categoryTree: tree, itemTypes, statuses, failed };
}
