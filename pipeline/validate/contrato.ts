// Moved to ../contract/schemas.ts (the contract comes before every stage that reads published
// files back). This re-export goes once history/capturas.ts imports from there.
export * from "../contract/schemas.ts";
