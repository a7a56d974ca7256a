import { dirname, join as joinPath, posix } from 'node:path';
import { get, join } from './pointer.ts';
import type { SpecDoc } from './types.ts';
import { isObj, type Obj } from './walk-context.ts';

/** Where external targets are hoisted to, so recursive and shared ones stay single nodes. */
export const BUNDLED = 'x-bundled';

/** `a/b.yaml` next to `spec/openapi.yaml`; for a git source `REF:spec/openapi.yaml`, in REF. */
export function siblingSource(source: string, rel: string, exists: (s: string) => boolean): string {
  const git = /^([^:]+):(.+)$/.exec(source);
  if (git && !exists(source))
    return `${git[1]}:${posix.normalize(posix.join(posix.dirname(git[2]!), rel))}`;
  return joinPath(dirname(source), rel);
}

/**
 * Makes every `$ref` of a spec local: a ref into another file (`./schemas/pet.yaml#/Pet`) is
 * read relative to the file that holds it and hoisted under `/x-bundled`, so the differ sees
 * what clients see instead of silently skipping it. A ref whose target cannot be found — a
 * missing component, a missing file, a remote URL — is an error naming the ref and where it is:
 * a report must never say "no change" about something it did not read.
 */
export function bundleRefs(
  doc: SpecDoc,
  source: string,
  read: (source: string) => SpecDoc,
  exists: (source: string) => boolean,
): SpecDoc {
  const files = new Map<string, SpecDoc>([[source, doc]]);
  const hoisted = new Map<string, string>();
  const bundle: Obj = {};
  const load = (src: string, ref: string, at: string, from: string): SpecDoc => {
    let d = files.get(src);
    if (!d) {
      try {
        d = read(src);
      } catch (err) {
        const why = /no such file/.test((err as Error).message)
          ? `no such file '${src}'`
          : (err as Error).message;
        throw new Error(`unresolvable $ref '${ref}' at ${at || '/'} in '${from}': ${why}`);
      }
      files.set(src, d);
    }
    return d;
  };
  const visit = (node: unknown, ptr: string, src: string): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) visit(node[i], join(ptr, i), src);
      return;
    }
    if (!isObj(node)) return;
    if (typeof node.$ref === 'string') node.$ref = localise(node.$ref, ptr, src);
    for (const [k, v] of Object.entries(node)) if (k !== '$ref') visit(v, join(ptr, k), src);
  };
  const localise = (ref: string, at: string, src: string): string => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref))
      throw new Error(
        `unresolvable $ref '${ref}' at ${at || '/'} in '${src}': remote refs are not fetched; save the file next to the spec and refer to it by path`,
      );
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    const target = filePart === '' ? src : siblingSource(src, filePart, exists);
    const targetDoc = filePart === '' ? files.get(src)! : load(target, ref, at, src);
    const pointer = decodeURIComponent(fragment);
    if (pointer !== '' && !pointer.startsWith('/'))
      throw new Error(
        `unresolvable $ref '${ref}' at ${at || '/'} in '${src}': only JSON-pointer fragments are supported`,
      );
    if (get(targetDoc, pointer) === undefined)
      throw new Error(
        `unresolvable $ref '${ref}' at ${at || '/'} in '${src}': ${filePart === '' ? 'no such element' : `no '${pointer || '/'}' in '${target}'`}`,
      );
    if (target === source) return `#${fragment}`;
    const key = `${target}#${pointer}`;
    let name = hoisted.get(key);
    if (name === undefined) {
      // Readable and stable across versions: the file as written in the root spec's terms.
      name = `${relativeName(source, target)}#${pointer}`;
      hoisted.set(key, name);
      const copy = structuredClone(get(targetDoc, pointer));
      bundle[name] = copy;
      visit(copy, join('', BUNDLED, name), target);
    }
    return `#${join('', BUNDLED, name).replace(/%/g, '%25')}`;
  };
  visit(doc, '', source);
  if (Object.keys(bundle).length > 0) doc[BUNDLED] = bundle;
  return doc;
}

function relativeName(root: string, target: string): string {
  const strip = (s: string) => s.replace(/^[^:]+:(?=.)/, '');
  const base = posix.dirname(strip(root).replace(/\\/g, '/'));
  return posix.relative(base, strip(target).replace(/\\/g, '/'));
}
