// The helper process: it answers the main process over its parent port.
process.parentPort.on('message', (event) => {
  process.parentPort.postMessage({ echo: event.data });
});
