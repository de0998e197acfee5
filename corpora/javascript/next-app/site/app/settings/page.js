"use client";
import { useEffect, useState } from "react";
import { CHANNELS } from "../../lib/channels";

export default function Settings() {
  const [theme, setTheme] = useState("light");
  useEffect(() => {
    window.bridge.invoke("settings:load").then((s) => setTheme(s.theme));
  }, []);
  return (
    <button onClick={() => window.bridge.send(CHANNELS.SAVE, { theme })}>theme {theme}</button>
  );
}
