import { Injectable } from '@nestjs/common';

const PARTS = ['keys', 'denyList', 'definitions'] as const;
type Part = (typeof PARTS)[number];

/**
 * Ready once the key set, the deny-list and the definitions (rate limit rules, flags) have each
 * been loaded once. Until then every health signal says "starting" and ValidateToken fails
 * closed; so a restarted sidecar serves the last definitions from its first answer.
 */
@Injectable()
export class Readiness {
  private readonly loaded = new Set<Part>();
  private readonly listeners: Array<() => void> = [];
  private isReady = false;

  get ready(): boolean {
    return this.isReady;
  }

  markLoaded(part: Part): void {
    this.loaded.add(part);
    if (this.isReady || this.loaded.size < PARTS.length) return;
    this.isReady = true;
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** Runs `listener` once ready (at once if already). */
  onReady(listener: () => void): void {
    if (this.isReady) listener();
    else this.listeners.push(listener);
  }

  whenReady(): Promise<void> {
    return new Promise((resolve) => this.onReady(resolve));
  }
}
