import "./settings.css";
import { format } from "./format.js";

export function open(value) {
  document.title = format(value);
}
