// Loaded on demand from the home page: its own chunk.
export async function report(count) {
  await fetch("https://telemetry.example.com/v1/report?token=secret-value", {
    method: "POST",
    body: JSON.stringify({ count }),
  });
  return count + 1;
}
