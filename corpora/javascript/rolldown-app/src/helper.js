export const helper = (x) => x + 1;
