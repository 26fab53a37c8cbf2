/**
 * Where lite's Storage keeps object bytes on the local stack: files under one folder,
 * `<folder>/<bucket>/<object key>`. lite ships its filesystem adapter only inside its CLI,
 * so this is the small adapter over node:fs its `StorageAdapter` type asks for (glue, not a
 * storage server: metadata, RLS and signed URLs stay lite's, in the real `storage` schema).
 * Every path is checked to stay inside the folder, whatever key reaches it. An object's
 * content type is kept beside it (`<folder>/.content-types/<bucket>/<key>`): lite serves the
 * adapter's type, not the one in storage.objects, and under `nosniff` a PDF served as
 * application/octet-stream is downloaded instead of shown in the preview frame.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import type { App } from "@supabase/lite";

type StorageAdapter = NonNullable<App["_storageAdapter"]>;
type ObjectMetadata = Awaited<ReturnType<StorageAdapter["headObject"]>>;
type UploadBody = Parameters<StorageAdapter["uploadObject"]>[3];

export class FileStorage implements StorageAdapter {
  readonly driver = "filesystem";
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of an object; a key that would leave the folder (`..`, absolute) is refused, and so is a bucket named like a hidden folder. */
  private file(bucket: string, key: string, under = this.root): string {
    const path = resolve(under, bucket, key);
    if (!path.startsWith(under + sep + bucket + sep) || bucket.includes("/") || bucket.startsWith(".")) {
      throw new Error("Invalid object key");
    }
    return path;
  }

  /** Where an object's content type is kept. */
  private typeFile(bucket: string, key: string): string {
    return this.file(bucket, key, resolve(this.root, ".content-types"));
  }

  private async contentType(bucket: string, key: string): Promise<string> {
    return (await readFile(this.typeFile(bucket, key), "utf8").catch(() => "")) || "application/octet-stream";
  }

  private metadata(size: number, mtime: Date, eTag: string, mimetype: string): ObjectMetadata {
    return { cacheControl: "no-cache", contentLength: size, size, mimetype, lastModified: mtime, eTag };
  }

  private static etagOf(path: string, mtimeMs: number): string {
    return `"${createHash("md5").update(`${path}:${mtimeMs}`).digest("hex")}"`;
  }

  async getObject(bucket: string, key: string, _version: string | undefined, headers?: { ifNoneMatch?: string; range?: string }) {
    const path = this.file(bucket, key);
    const info = await stat(path);
    const eTag = FileStorage.etagOf(path, info.mtimeMs);
    const type = await this.contentType(bucket, key);
    if (headers?.ifNoneMatch === eTag) return { httpStatusCode: 304, metadata: this.metadata(info.size, info.mtime, eTag, type) };
    const range = headers?.range ? /^bytes=(\d+)-(\d*)$/.exec(headers.range) : null;
    if (range && info.size > 0) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : info.size - 1, info.size - 1);
      if (start <= end) {
        return {
          httpStatusCode: 206,
          metadata: { ...this.metadata(end - start + 1, info.mtime, eTag, type), contentRange: `bytes ${start}-${end}/${info.size}` },
          body: Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream,
        };
      }
    }
    return {
      httpStatusCode: 200,
      metadata: this.metadata(info.size, info.mtime, eTag, type),
      body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    };
  }

  async uploadObject(bucket: string, key: string, _version: string | undefined, body: UploadBody, contentType: string, cacheControl: string) {
    const path = this.file(bucket, key);
    await mkdir(dirname(path), { recursive: true });
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(await new Response(body as ReadableStream).arrayBuffer());
    await writeFile(path, bytes);
    const typePath = this.typeFile(bucket, key);
    await mkdir(dirname(typePath), { recursive: true });
    await writeFile(typePath, contentType);
    const info = await stat(path);
    return {
      cacheControl,
      contentLength: info.size,
      size: info.size,
      mimetype: contentType,
      lastModified: info.mtime,
      eTag: `"${createHash("md5").update(bytes).digest("hex")}"`,
    };
  }

  async deleteObject(bucket: string, key: string): Promise<void> {
    for (const path of [this.file(bucket, key), this.typeFile(bucket, key)]) {
      await unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
  }

  async deleteObjects(bucket: string, keys: string[]): Promise<void> {
    for (const key of keys) await this.deleteObject(bucket, key);
  }

  async copyObject(sourceBucket: string, source: string, _version: string | undefined, targetBucket: string, target: string) {
    const to = this.file(targetBucket, target);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(this.file(sourceBucket, source), to);
    const typeTo = this.typeFile(targetBucket, target);
    await mkdir(dirname(typeTo), { recursive: true });
    await writeFile(typeTo, await this.contentType(sourceBucket, source));
    const info = await stat(to);
    return { httpStatusCode: 200, eTag: FileStorage.etagOf(to, info.mtimeMs), lastModified: info.mtime };
  }

  async headObject(bucket: string, key: string): Promise<ObjectMetadata> {
    const path = this.file(bucket, key);
    const info = await stat(path);
    return this.metadata(info.size, info.mtime, FileStorage.etagOf(path, info.mtimeMs), await this.contentType(bucket, key));
  }

  async privateAssetUrl(bucket: string, key: string): Promise<string> {
    return `file://${this.file(bucket, key)}`;
  }

  /** Removes the folder and everything in it (temporary stacks, on stop). */
  async removeAll(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
