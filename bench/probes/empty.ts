/** Cold-start probe: an empty module — the floor of a fresh `import()`. */
export const handler = async () => ({});
