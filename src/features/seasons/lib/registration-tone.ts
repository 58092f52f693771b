import type { BadgeTone } from '#src/components/ui/badge.tsx';

/** A registration's state as a badge colour (queue, my registrations, the dashboard). */
export const registrationTone: Record<string, BadgeTone> = {
  Submitted: 'info',
  Approved: 'primary',
  Rejected: 'error',
  Allocated: 'warning',
  AdmitCardIssued: 'success',
  Attended: 'success',
  Absent: 'neutral',
  Cancelled: 'neutral',
};
