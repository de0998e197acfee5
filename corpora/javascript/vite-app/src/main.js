import "./main.css";
import { shared } from "./shared.js";

// Two pages loaded on demand: Vite preloads each one's chunk, the chunks it imports and the
// style sheets of all of them before the import runs.
document.getElementById("app").addEventListener("click", async () => {
  const settings = await import("./settings.js");
  settings.open(shared);
});
document.addEventListener("keydown", async (event) => {
  if (event.key === "?") {
    const help = await import("./help.js");
    help.show();
  }
});
