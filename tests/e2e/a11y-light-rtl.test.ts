import { auditEveryScreen } from './support/a11y-audit.ts';

// Every audited screen in light rtl (tests/e2e/support/a11y-audit.ts; the other three are files of their own).
auditEveryScreen('light', 'rtl');
