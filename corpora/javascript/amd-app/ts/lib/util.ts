export const twice = (n: number): number => n * 2;
