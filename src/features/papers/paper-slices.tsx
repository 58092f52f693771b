import { Navigate } from 'react-router-dom';
import { P } from '#machines/permissions.ts';
import { examStore, paperStore } from '#src/app/stores/slices.ts';
import { recordIdOf } from '#src/lib/http/headers.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { ChooseExamState, ChoosePaperState } from './components/choose-exam-state.tsx';

/**
 * The workspace's paper-level slices (EXAMS.md §1): Sections and Sets of the selected paper are
 * tabs of the paper's screen, so these routes open that tab; with no paper selected they say
 * where to choose one.
 */
function PaperSlice({ slice }: { slice: 'sections' | 'sets' }) {
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const paperId = useStoreValue(paperStore, (s) => recordIdOf(s.context.selected, 'paperId'));
  if (!exam) return <ChooseExamState />;
  if (paperId === null) return <ChoosePaperState slice={slice} />;
  return <Navigate to={`/workspace/papers/${paperId}?tab=${slice}`} replace />;
}

export const SectionsSlicePage = () => (
  <PermissionGate permission={P.Projects.View}>
    <PaperSlice slice="sections" />
  </PermissionGate>
);
export const SetsSlicePage = () => (
  <PermissionGate permission={P.Projects.View}>
    <PaperSlice slice="sets" />
  </PermissionGate>
);
