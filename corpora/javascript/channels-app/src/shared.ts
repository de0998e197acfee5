// A barrel, as apps keep their shared modules: the preload imports the channels through it.
export * from "./channels";
