/**
 * Servers of the OpenAPI description. GitHub Pages serves public/ (the gh-pages branch) at the
 * Pages URL of the repository; jsDelivr mirrors the same branch. Both come from package.json's
 * `repository` (pipeline/domain/site.ts), the one setting a fork edits.
 */
export { JSDELIVR_URL, SITE_URL } from "../domain/site.ts";
/** `npm start` (the query interface is served only there and on self-hosted deployments). */
export const LOCAL_URL = "http://localhost:8080/";
