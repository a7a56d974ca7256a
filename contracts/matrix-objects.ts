/**
 * The real objects of workspace A the rule × operation matrix addresses, found from the spec
 * alone: a path parameter `{x_id}` of `/v1/xs/{x_id}…` is an object of the collection `/v1/xs`,
 * created once per worker with a sample body when the spec has a creation (POST on the
 * collection) and the run may write, else the first one A's list shows. One ticket, one contact
 * and one macro of A serve every cell that needs one (a gate run's request budget is small), and
 * the clean-up closes or deletes what was created (fixtures.ts). A list is judged on A's objects
 * of its collection: those, else A's first page, else — A shows none, as a fresh staging
 * workspace may (the reference seeds a rule in each workspace, so nothing is made there) — one made
 * through the spec's creation on the list's template; when none can be had, the reason, and the
 * list's isolation is not judged (`ownIds`). Request bodies are the spec's
 * samples (core/spec/sample-body.ts) with the run's tag, unique e-mail addresses and those ids.
 *
 * The other workspace's request on A's object names, in its body, objects of the other
 * workspace's own (`ownBody`): B applying A's macro to A's ticket is refused for the ticket, so
 * whether the macro itself is isolated would never be seen. B's own object of a collection is
 * created once with B's key, like A's (cached, kept for the next worker, closed by the clean-up
 * with B's key); never taken from B's list — a faulty deployment would write a real one.
 */
import { randomBytes } from 'node:crypto';
import type { ApiClient } from '../core/http/api-client.ts';
import { listRows } from '../core/http/list-page.ts';
import { validate } from '../core/schemas/registry.ts';
import type { OpenApiDoc } from '../core/spec/load-spec.ts';
import type { OperationSpec } from '../core/spec/operations.ts';
import { sampleBody } from '../core/spec/sample-body.ts';
import type { Tag } from './helpers.ts';

/** An object of workspace A: its id and representation. */
export interface AObject {
  id: string;
  json: Record<string, unknown>;
  /** The list template it is a row of (`/v1/tickets`). */
  collection: string;
}

/** A request the matrix can send for an operation, or why it cannot. */
export type Built = { path: string; body?: unknown; objects: AObject[] } | { unreachable: string };

/** An id-shaped value no deployment issued, in the style of `like` (its prefix). */
export function unknownLike(like: string): string {
  const prefix = /^([a-z]+)_/i.exec(like)?.[1] ?? 'obj';
  return `${prefix}_harness_unknown_${randomBytes(5).toString('hex')}`;
}

/** Where the objects found are kept for the worker that replaces this one (after a failure). */
export interface ObjectStore {
  load(): Record<string, AObject>;
  save(objects: Record<string, AObject>): void;
}

/**
 * The store's key of the other workspace's own object for a path parameter (A's: the bare name;
 * A's object made for a list: the list's template, `/v1/rules`).
 */
const OWN = 'other-workspace:';

/** Resolves an id-valued property of a body to an object (A's, or the other workspace's own). */
type Resolve = (param: string) => Promise<AObject | string>;

export class MatrixObjects {
  private readonly objects = new Map<string, Promise<AObject | string>>();
  private readonly own = new Map<string, Promise<AObject | string>>();
  private readonly pages = new Map<string, Promise<string[] | string>>();
  private readonly found: Record<string, AObject>;

  constructor(
    private readonly doc: OpenApiDoc,
    private readonly ops: readonly OperationSpec[],
    private readonly o: { readOnly: boolean; tag: Tag; store?: ObjectStore },
  ) {
    // Objects an earlier worker of this run found: one ticket per run, not one per worker.
    this.found = o.store?.load() ?? {};
    for (const [key, obj] of Object.entries(this.found))
      if (key.startsWith(OWN)) this.own.set(key.slice(OWN.length), Promise.resolve(obj));
      else this.objects.set(key, Promise.resolve(obj));
  }

  /** The collection an id parameter names objects of: the template up to `/{param}`. */
  private collectionOf(param: string): string | undefined {
    for (const op of this.ops) {
      const at = op.template.indexOf(`/{${param}}`);
      if (at > 0) return op.template.slice(0, at);
    }
    return undefined;
  }

  private listOp(collection: string) {
    return this.ops.find((o) => o.method === 'GET' && o.template === collection && o.list);
  }

  /** The properties of `schema` that name an object of a collection of the spec (`ticket_id`). */
  refs(schema: string): string[] {
    const props = Object.keys(this.doc.components?.schemas?.[schema]?.properties ?? {});
    return props.filter((p) => this.collectionOf(p) !== undefined);
  }

  /** A body from the spec's sample of `schema`, with the run's tag and A's real ids. */
  body(api: ApiClient, schema: string): Promise<{ body: unknown } | { unreachable: string }> {
    return this.bodyWith(schema, (p) => this.object(api, p));
  }

  /**
   * `schema`'s body as the other workspace sends it on A's object: every object it names is B's
   * own (made with B's client `b`), so the only foreign object is the one in the path. Undefined
   * when the body names none (no request spent); `unreachable` when B's own cannot be had — the
   * caller keeps A's ids then, and says why.
   */
  async ownBody(
    b: ApiClient,
    schema: string,
  ): Promise<
    { body: unknown; names: string[] } | { unreachable: string; names: string[] } | undefined
  > {
    const names = this.refs(schema);
    if (names.length === 0) return undefined;
    const built = await this.bodyWith(schema, (p) => this.ownObject(b, p));
    return { ...built, names };
  }

  private async bodyWith(
    schema: string,
    resolve: Resolve,
  ): Promise<{ body: unknown } | { unreachable: string }> {
    const ids: Record<string, string> = {};
    for (const p of this.refs(schema)) {
      const obj = await resolve(p);
      if (typeof obj === 'string') return { unreachable: obj };
      ids[p] = obj.id;
    }
    const body = sampleBody(this.doc, schema, (name, s) => {
      if (ids[name] !== undefined) return ids[name];
      if (s.type === 'string' && (name === 'subject' || name === 'name'))
        return this.o.tag.subject(`rule matrix ${name}`);
      if (s.type === 'array' && name === 'tags') return this.o.tag.tags;
      // A unique address: a deployment may refuse a second contact with the same one.
      if (s.format === 'email') return `rule-matrix-${randomBytes(4).toString('hex')}@example.com`;
      return undefined;
    });
    // The run's tags on whatever the matrix may create (shared staging: found and cleaned up).
    const tagsSchema = this.doc.components?.schemas?.[schema]?.properties?.tags;
    if (tagsSchema?.type === 'array' && body && typeof body === 'object')
      (body as Record<string, unknown>).tags = this.o.tag.tags;
    let issues: ReturnType<typeof validate>;
    try {
      issues = validate(schema, body);
    } catch {
      issues = [];
    }
    return issues.length === 0
      ? { body }
      : {
          unreachable: `no valid ${schema} could be derived from the spec (${issues[0]!.pointer || '/'} ${issues[0]!.message})`,
        };
  }

  /** Workspace A's object named by the path parameter `param` (cached per worker). */
  object(api: ApiClient, param: string): Promise<AObject | string> {
    return this.cached(this.objects, param, param, () => this.find(api, param));
  }

  /**
   * The other workspace's own object for `param`, created with its client `b` (cached per worker,
   * kept for the next one like A's): only by the spec's creation, and not in a read-only run.
   */
  ownObject(b: ApiClient, param: string): Promise<AObject | string> {
    return this.cached(this.own, param, `${OWN}${param}`, async () => {
      const collection = this.collectionOf(param);
      if (!collection) return `the spec names no collection for {${param}}`;
      const create = this.creationOf(collection);
      if (!create)
        return `the spec has no creation on ${collection} to make the other workspace's own`;
      if (this.o.readOnly) return 'a read-only run creates nothing for the other workspace';
      return this.create(b, create, 'the other workspace', (p) => this.ownObject(b, p));
    });
  }

  private cached(
    map: Map<string, Promise<AObject | string>>,
    param: string,
    key: string,
    find: () => Promise<AObject | string>,
  ): Promise<AObject | string> {
    let hit = map.get(param);
    if (!hit) {
      // A test that ended while finding it (its key's budget spent: skipped) leaves no answer.
      hit = find().then(
        (obj) => {
          if (typeof obj !== 'string') {
            this.found[key] = obj;
            this.o.store?.save(this.found);
          }
          return obj;
        },
        (e: unknown) => {
          map.delete(param);
          throw e;
        },
      );
      map.set(param, hit);
    }
    return hit;
  }

  private creationOf(collection: string): OperationSpec | undefined {
    return this.ops.find(
      (o) =>
        o.method === 'POST' &&
        o.template === collection &&
        o.pathParams.length === 0 &&
        o.requestSchema,
    );
  }

  /** An object made through `create` with `api`'s key, its body naming what `resolve` gives. */
  private async create(
    api: ApiClient,
    create: OperationSpec,
    whose: string,
    resolve: Resolve,
  ): Promise<AObject | string> {
    const built = await this.bodyWith(create.requestSchema!, resolve);
    if ('unreachable' in built) return built.unreachable;
    const ex = await api.send('POST', create.template, { body: built.body });
    const json = ex.json as Record<string, unknown> | undefined;
    if (typeof json?.id === 'string') return { id: json.id, json, collection: create.template };
    return `creating a ${create.template} object of ${whose} for the matrix answered ${ex.status ?? ex.error}`;
  }

  private async find(api: ApiClient, param: string): Promise<AObject | string> {
    const collection = this.collectionOf(param);
    if (!collection) return `the spec names no collection for {${param}}`;
    const create = this.creationOf(collection);
    if (create && !this.o.readOnly)
      return this.create(api, create, 'workspace A', (p) => this.object(api, p));
    const list = this.listOp(collection);
    if (!list)
      return `no way to obtain a {${param}} of workspace A: the spec has ${this.o.readOnly ? 'no list' : 'neither a creation nor a list'} on ${collection}${this.o.readOnly && create ? ' (read-only run: nothing is created)' : ''}`;
    const ex = await api.send('GET', collection, { query: { limit: 1 } });
    const first = listRows(ex.json)[0];
    if (typeof first?.id === 'string') return { id: first.id, json: first, collection };
    return `workspace A has no ${collection} object to address (GET ${collection} answered ${ex.status ?? ex.error}${ex.status === 200 ? ', empty' : ''})`;
  }

  /**
   * The ids of workspace A's objects a list must never show another workspace: the matrix's own
   * objects of that collection, else the first page A itself is shown, else — A shows none — one
   * object made through the spec's creation on the list's template (`listObject`). A string is
   * why A has none: a list's isolation then has nothing to look for in the other workspace's
   * list, and must not count as judged (an empty `foreignIds` could never fail).
   */
  ownIds(
    api: ApiClient,
    list: OperationSpec,
    fixtures: readonly AObject[],
  ): Promise<string[] | string> {
    const mine = fixtures.filter((f) => f.collection === list.template).map((f) => f.id);
    if (mine.length > 0) return Promise.resolve(mine);
    let hit = this.pages.get(list.template);
    if (!hit) {
      hit = this.pageOrMade(api, list).catch((e: unknown) => {
        this.pages.delete(list.template);
        throw e;
      });
      this.pages.set(list.template, hit);
    }
    return hit;
  }

  private async pageOrMade(api: ApiClient, list: OperationSpec): Promise<string[] | string> {
    const ex = await api.send('GET', list.template);
    const ids = listRows(ex.json)
      .map((r) => r.id)
      .filter((id): id is string => typeof id === 'string');
    if (ids.length > 0) return ids;
    const made = await this.listObject(api, list.template);
    if (typeof made !== 'string') return [made.id];
    const answered = `GET ${list.template} answered ${ex.status ?? ex.error}${ex.status === 200 ? ', empty' : ''}`;
    return `workspace A has no ${list.template} object to look for in the other workspace's list (${answered}; none could be made: ${made})`;
  }

  /**
   * One object of workspace A in `collection`, for a list A shows empty: made through the spec's
   * creation with the run's tag (so the clean-up finds it on shared staging), once per run — kept
   * in the store under the collection's template (no path parameter is named so), so a
   * replacement worker has it among the resolved objects. Only when A shows none: a shared staging
   * that already has one gets nothing more (a rule, for one, cannot be deleted in v1).
   */
  private listObject(api: ApiClient, collection: string): Promise<AObject | string> {
    return this.cached(this.objects, collection, collection, async () => {
      const create = this.creationOf(collection);
      if (!create) return `the spec has no creation on ${collection}`;
      if (this.o.readOnly) return 'a read-only run creates nothing';
      return this.create(api, create, 'workspace A', (p) => this.object(api, p));
    });
  }

  /** Every object the matrix already resolved (for the lists' own ids). */
  async resolved(): Promise<AObject[]> {
    const all = await Promise.allSettled(this.objects.values());
    return all.flatMap((r) =>
      r.status === 'fulfilled' && typeof r.value !== 'string' ? [r.value] : [],
    );
  }

  /**
   * The request of `op` on workspace A's objects: its path with A's ids (or `unknownId` in place of
   * the last one) and, for an operation with a body, a valid sample body.
   */
  async request(api: ApiClient, op: OperationSpec): Promise<Built> {
    const objects: AObject[] = [];
    let path = op.template;
    for (const p of op.pathParams) {
      const obj = await this.object(api, p);
      if (typeof obj === 'string') return { unreachable: obj };
      objects.push(obj);
      path = path.replace(`{${p}}`, encodeURIComponent(obj.id));
    }
    if (!op.requestSchema) return { path, objects };
    const built = await this.body(api, op.requestSchema);
    return 'unreachable' in built ? built : { path, body: built.body, objects };
  }
}

/** `path` with its last path id (of `op`) replaced by `id`. */
export function withLastId(op: OperationSpec, objects: readonly AObject[], id: string): string {
  let path = op.template;
  op.pathParams.forEach((p, i) => {
    const value = i === op.pathParams.length - 1 ? id : objects[i]!.id;
    path = path.replace(`{${p}}`, encodeURIComponent(value));
  });
  return path;
}
