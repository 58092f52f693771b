import { useCallback, useEffect, useState } from 'react';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import { projectsApi, type Category, type Flow, type ItemType, type ProjectDetail } from './api/projects-api.ts';

/**
 * What one project holds now: its detail and configuration, read again after every change.
 * Each successful read refreshes the selected project's payload (the same project: the exam
 * and lower selections stay).
 */
export function useProjectConfig(projectId: number) {
  const [detail, setDetail] = useState<ProjectDetail | null>(null);
  const [itemTypes, setItemTypes] = useState<ItemType[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);
  const [flows, setFlows] = useState<Flow[]>([]);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      const [d, i, c, f] = await Promise.all([
        projectsApi.get(projectId),
        projectsApi.itemTypes(projectId),
        projectsApi.categories(projectId),
        projectsApi.flows(projectId),
      ]);
      setDetail(d);
      setItemTypes(i);
      setCategories(c);
      setFlows(f);
      setError(null);
      selectProject(d as unknown as Record<string, unknown>);
    } catch (failure) {
      setError(failure);
    }
  }, [projectId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const replaceDetail = useCallback((next: ProjectDetail) => {
    setDetail(next);
    selectProject(next as unknown as Record<string, unknown>);
  }, []);
  return { detail, itemTypes, categories, flows, error, reload, replaceDetail };
}
