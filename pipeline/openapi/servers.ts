/**
 * Where the site is published. GitHub Pages serves public/ at the Pages URL of the repository;
 * jsDelivr mirrors the same tree straight from the repository's main branch. Both URLs derive
 * from the repository slug, fixed here (not read from the environment) so that every machine
 * renders the same bytes.
 */
export const REPOSITORIO = "cotacao-aberta/cotacao-aberta";

const [OWNER, NAME] = REPOSITORIO.split("/") as [string, string];

/** Site root on GitHub Pages, with a trailing slash. */
export const SITE_URL = `https://${OWNER}.github.io/${NAME}/`;
/** The same tree through jsDelivr's GitHub mirror, with a trailing slash. */
export const JSDELIVR_URL = `https://cdn.jsdelivr.net/gh/${OWNER}/${NAME}@main/public/`;
/** `npm start` (the query interface is served only there and on self-hosted deployments). */
export const LOCAL_URL = "http://localhost:8080/";
