// class-transformer keeps the `@Type(() => X)` targets in this storage and types it apart from its file.
declare module 'class-transformer/cjs/storage' {
  export * from 'class-transformer/types/storage';
}
