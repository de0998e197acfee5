#!/usr/bin/env python3
"""Writes DIR/main.js: a webpack-5-shaped minified main bundle of N factories (default 20,000)
that all take `(e, t, n)`, with `electron` as an external bound to `n` at the top level, the
shape that stresses scoped aliases (one short name bound in thousands of functions).

Usage: minified_bundle.py DIR [N]
"""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20000
parts = ['(()=>{var e={12:e=>{e.exports=require("electron")},']
for i in range(n):
    parts.append(f'{100 + i}:(e,t,n)=>{{n.d(t,{{a:()=>r}});var r=n({99 + i if i else 12});r.x.y();n.r(t)}},')
parts.append('},t={};function o(n){var r=t[n];if(void 0!==r)return r.exports;'
             'var i=t[n]={exports:{}};return e[n](i,i.exports,o),i.exports}'
             'var n=o(12);n.ipcMain.handle("a",()=>1)})();')
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "main.js"), "w") as f:
    f.write("".join(parts))
