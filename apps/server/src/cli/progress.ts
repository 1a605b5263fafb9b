/**
 * A one-line progress bar on stderr (stdout stays for the report). On a terminal it redraws in
 * place; otherwise (a pipe, a log file) it prints a line every tenth of the way.
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const width = 30;
  let lastTenth = -1;
  return {
    update(done: number, total: number) {
      const ratio = total === 0 ? 1 : done / total;
      const percent = Math.floor(ratio * 100);
      if (stream.isTTY) {
        const filled = Math.round(ratio * width);
        stream.write(
          `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${percent}%`,
        );
        if (done === total) stream.write('\n');
        return;
      }
      const tenth = Math.floor(ratio * 10);
      if (tenth !== lastTenth || done === total) {
        lastTenth = tenth;
        stream.write(`${label} ${done}/${total} ${percent}%\n`);
      }
    },
  };
}
