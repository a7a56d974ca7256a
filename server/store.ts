/**
 * In-memory state of the reference deployment. Every record carries its workspace id; the
 * routes, never the store, decide what a key may see (so isolation faults live in one place).
 */
import { randomBytes } from 'node:crypto';

export type Plan = 'team' | 'growth' | 'enterprise';
export type Scope = 'read' | 'full';
/** U1: `resolved` only where the close operation leaves it (server/readings/tickets.ts). */
export type Status = 'open' | 'pending' | 'on_hold' | 'resolved' | 'closed';
export type Priority = 'low' | 'normal' | 'high';

/** Resolved or closed: the docs' ticket.closed fires for either; no SLA clock runs, nothing waits. */
export const isDone = (s: Status): boolean => s === 'resolved' || s === 'closed';

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  ratePerMin: number;
  burst: number;
}

export interface ApiKey {
  id: string;
  workspaceId: string;
  scope: Scope;
  secret: string;
  revoked: boolean;
  /** Set when the key was rotated: the old secret stops working. */
  rotatedTo?: string;
}

export interface Ticket {
  id: string;
  seq: number;
  workspaceId: string;
  subject: string;
  status: Status;
  priority: Priority;
  requester: { email: string; name?: string };
  tags: string[];
  createdAtMs: number;
  updatedAtMs: number;
  firstResponseDueMs: number;
  firstResponseAtMs?: number;
  atRiskFired: boolean;
}

export interface Message {
  id: string;
  ticketId: string;
  workspaceId: string;
  body: string;
  author: 'agent' | 'customer';
  internal: boolean;
  createdAtMs: number;
}

export interface Contact {
  id: string;
  seq: number;
  workspaceId: string;
  email: string;
  name?: string;
  createdAtMs: number;
}

export interface MacroActions {
  status?: Status;
  priority?: Priority;
  tags_add?: string[];
  reply?: string;
}

export interface Macro {
  id: string;
  workspaceId: string;
  name: string;
  actions: MacroActions;
}

export interface Rule {
  id: string;
  workspaceId: string;
  name: string;
  event: string;
  conditions: { priority?: Priority; tag?: string };
  actions: MacroActions;
  enabled: boolean;
  createdAtMs: number;
}

export function newId(prefix: string, bytes = 9): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

export class Store {
  readonly workspaces = new Map<string, Workspace>();
  readonly keys = new Map<string, ApiKey>(); // by id
  readonly keysBySecret = new Map<string, ApiKey>();
  readonly tickets = new Map<string, Ticket>();
  readonly messages: Message[] = [];
  readonly contacts = new Map<string, Contact>();
  readonly macros = new Map<string, Macro>();
  readonly rules = new Map<string, Rule>();
  private seq = 0;
  /** Tickets in creation (`seq`) order: all, and per workspace (a list reads from the newest). */
  private readonly ordered: Ticket[] = [];
  private readonly orderedBy = new Map<string, Ticket[]>();

  /** Stores a new ticket; its `seq` must be the newest yet (nextSeq()). */
  addTicket(t: Ticket): void {
    this.tickets.set(t.id, t);
    this.ordered.push(t);
    const mine = this.orderedBy.get(t.workspaceId);
    if (mine) mine.push(t);
    else this.orderedBy.set(t.workspaceId, [t]);
  }

  /** A workspace's tickets, oldest first (every workspace's when `workspaceId` is undefined). */
  ticketsInOrder(workspaceId?: string): readonly Ticket[] {
    return workspaceId === undefined ? this.ordered : (this.orderedBy.get(workspaceId) ?? []);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  addWorkspace(w: Omit<Workspace, 'id'>): Workspace {
    const ws = { id: newId('ws', 6), ...w };
    this.workspaces.set(ws.id, ws);
    return ws;
  }

  issueKey(workspaceId: string, scope: Scope): ApiKey {
    const prefix = scope === 'full' ? 'stk_full' : 'stk_read';
    const key: ApiKey = {
      id: newId('key', 6),
      workspaceId,
      scope,
      secret: `${prefix}_${randomBytes(24).toString('base64url')}`,
      revoked: false,
    };
    this.keys.set(key.id, key);
    this.keysBySecret.set(key.secret, key);
    return key;
  }

  /** Rotation issues a new secret for the same key id; the old secret is remembered as rotated. */
  rotateKey(id: string): ApiKey | undefined {
    const old = this.keys.get(id);
    if (!old || old.revoked) return undefined;
    const fresh = this.issueKey(old.workspaceId, old.scope);
    // Keep the key id stable across rotations: dashboards show one key, not a chain.
    this.keys.delete(fresh.id);
    fresh.id = old.id;
    this.keys.set(old.id, fresh);
    old.revoked = true;
    old.rotatedTo = fresh.secret;
    return fresh;
  }
}
