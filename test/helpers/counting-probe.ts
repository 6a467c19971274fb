/** A prober that counts its calls (each one a process or a browser the real probe would start) and answers `answer`: what a memo test asks of a probe. */
export function counting<T>(answer: T): { probe: () => Promise<T>; calls: () => number } {
  let n = 0;
  return {
    probe: async () => {
      n++;
      return answer;
    },
    calls: () => n,
  };
}
