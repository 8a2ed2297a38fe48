/** The spec's volume for the finish sound. */
export const FINISH_SOUND_VOLUME = 0.5;

/** How old the finishing event may be: older ones are history replayed on opening the conversation. */
const RECENT_MS = 30_000;

/** The event happened just now (server and browser clocks agree to within seconds). */
export const isRecent = (timestamp: string | undefined, now: number) =>
  timestamp !== undefined && Math.abs(now - Date.parse(timestamp)) <= RECENT_MS;

/** A short two-note chime, made with Web Audio (no sound file to load). */
export function playFinishSound(): void {
  const context = new AudioContext();
  const gain = context.createGain();
  gain.gain.value = FINISH_SOUND_VOLUME;
  gain.connect(context.destination);
  [880, 1318.5].forEach((frequency, index) => {
    const note = context.createOscillator();
    note.frequency.value = frequency;
    note.connect(gain);
    note.start(context.currentTime + index * 0.12);
    note.stop(context.currentTime + index * 0.12 + 0.12);
  });
  setTimeout(() => void context.close(), 500);
}
