// IPC channels kept in a module of their own, as TypeScript apps do: a constant, a constant
// object, an enum and a list, imported by the main process and the preload.
export const GET = "settings:get";
export const SAVE = "settings:save";
export const RESET = "settings:reset";
export const IPC = { window: { CLOSE: "window:close" } } as const;
export enum Channel { Open = "link:open", Count = 3 }
export const LOG = "log:line";
export const FLUSH = "log:flush";
export const LOGGED = [LOG, FLUSH];
