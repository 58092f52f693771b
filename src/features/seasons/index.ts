// The seasons feature's public entry (eslint.config.js, `features/public-entry`): exam centers,
// seasons, registrations and admit cards (issue 18).
export { registrationsApi, seasonsApi, centersApi, type AdmitVerdict, type Registration, type Season, type SeasonCenter } from './api/seasons-api.ts';
// The dashboard's card of the candidate's registrations (imported lazily there).
export { DashboardRegistrations } from './dashboard-registrations.tsx';
