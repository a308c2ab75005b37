import { Injectable } from '@nestjs/common';

type Part = 'keys' | 'denyList';

/**
 * Ready once the key set and the deny-list have each been loaded once. Until then every
 * health signal says "starting" and ValidateToken fails closed.
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
    if (this.isReady || this.loaded.size < 2) return;
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
