export const shared = "shared";
