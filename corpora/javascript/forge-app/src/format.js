export function describe(label, version) {
  return `${label} ${version}`;
}
