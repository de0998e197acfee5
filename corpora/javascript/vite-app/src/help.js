import "./help.css";
import { format } from "./format.js";

export function show() {
  document.body.dataset.help = format("help");
}
