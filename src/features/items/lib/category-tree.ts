import type { Category } from '#src/features/projects/index.ts';
import type { TreeOption } from '#src/components/ui/tree-select.tsx';

export interface CategoryOption {
  value: string;
  label: string;
  depth: number;
  path: string;
}

/**
 * The project's category tree (subject → unit → topic) as a flat list in tree order, each entry
 * indented by its depth and named by its path, for the category pickers of the list and the
 * editor. Retired categories are left out; a category whose parent is missing is a root.
 */
export function categoryOptions(categories: readonly Category[]): CategoryOption[] {
  const live = categories.filter((c) => !c.isRetired);
  const ids = new Set(live.map((c) => c.categoryId));
  const children = new Map<number | null, Category[]>();
  for (const category of live) {
    const parent = category.parentId !== null && ids.has(category.parentId) ? category.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), category]);
  }
  for (const list of children.values()) list.sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const out: CategoryOption[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number, path: string[]) => {
    for (const category of children.get(parent) ?? []) {
      if (seen.has(category.categoryId)) continue;
      seen.add(category.categoryId);
      const names = [...path, category.name];
      out.push({ value: String(category.categoryId), label: `${'\u2003'.repeat(depth)}${category.name}`, depth, path: names.join(' › ') });
      walk(category.categoryId, depth + 1, names);
    }
  };
  walk(null, 0, []);
  return out;
}

/** The same tree, nested, for the tree picker of the list's category filter. */
export function categoryTree(categories: readonly Category[]): TreeOption[] {
  const roots: TreeOption[] = [];
  const stack: TreeOption[] = [];
  for (const option of categoryOptions(categories)) {
    const node: TreeOption = { value: option.value, label: option.label.replace(/^\u2003+/, '') };
    stack.length = option.depth;
    const parent = stack[option.depth - 1];
    if (parent) parent.children = [...(parent.children ?? []), node];
    else roots.push(node);
    stack.push(node);
  }
  return roots;
}
