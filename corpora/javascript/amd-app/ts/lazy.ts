export const note = "loaded later";
