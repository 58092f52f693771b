// The projects feature's public entry: other features (the item bank, later papers and seasons)
// import only from here (eslint.config.js, `features/public-entry`).
export { NoProjectState } from './components/no-grant.tsx';
export { examsApi, projectsApi, searchBody, type Category, type Flow, type ItemType } from './api/projects-api.ts';
export { loadExamPermissions } from './choose-exam.ts';
