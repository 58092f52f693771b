// The users feature's public entry: other features import only from here (eslint.config.js,
// `features/public-entry`).
export { PermissionGate } from './components/permission-gate.tsx';
export { usersApi, type UserDetail } from './api/users-api.ts';
export { DownloadButton } from './components/export-button.tsx';
