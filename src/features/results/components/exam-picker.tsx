import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { SelectField } from '#src/components/ui/select.tsx';
import { markingApi, type ExamOption } from '../api/results-api.ts';

/**
 * The exams of the selected project, for the marking queue and the results console, which both
 * work on one exam at a time: the list, the chosen id ('' for none) and a failure to list them.
 */
export function useExamChoice() {
  const [exams, setExams] = useState<ExamOption[] | null>(null);
  const [examId, setExamId] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    markingApi.exams().then(setExams, (error: unknown) => setFailure(error ?? new Error('failed')));
  }, []);
  return { exams, examId, setExamId, failure };
}

export function ExamPicker({ choice, testId }: { choice: ReturnType<typeof useExamChoice>; testId: string }) {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  return (
    <div className={css({ mb: '4', maxWidth: '24rem' })}>
      <SelectField
        label={t('exam')}
        value={choice.examId}
        onValueChange={choice.setExamId}
        placeholder={t('chooseExam')}
        options={(choice.exams ?? []).map((e) => ({ value: String(e.examId), label: `${e.code} · ${e.name}` }))}
        testId={testId}
      />
    </div>
  );
}
