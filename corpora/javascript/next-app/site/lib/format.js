export function describe(count) {
  return { count, at: new Date().toISOString() };
}
