// The results feature's public entry (issue 20).
export { myResultsApi, markingApi } from './api/results-api.ts';
