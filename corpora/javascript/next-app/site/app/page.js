"use client";
import { useState } from "react";
import { CHANNELS } from "../lib/channels";
import { describe } from "../lib/format";

export default function Home() {
  const [count, setCount] = useState(0);
  async function click() {
    const lazy = await import("../lib/lazy");
    const next = await lazy.report(count);
    window.bridge.send(CHANNELS.CLICKED, describe(next));
    setCount(next);
  }
  return (
    <main>
      <button onClick={click}>clicked {count}</button>
      <a href="/settings">settings</a>
    </main>
  );
}
