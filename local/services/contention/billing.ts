import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { WriteBudget } from './budget';
import { itemSize, type TouchedItem, type WireItem, writeUnits } from './items';

/** Item sizes remembered between a write and the next one (updates carry no item). */
const REMEMBERED_SIZES = 10_000;
/** How often an updated item's size is read back, at most. */
const SIZE_PROBE_INTERVAL_MS = 1_000;

/**
 * What each write costs against the per-item write budget (docs/contract.md §20). DynamoDB
 * bills a write by the item's size (2 units per KB in a transaction, 1 plain); a Put carries
 * its item, an update only its key, so the layer remembers the size of every item it saw
 * written and reads an updated item back, at most once a second, to bill its next write right.
 */
export class ItemBilling {
  private readonly budget: WriteBudget;
  private readonly sizes = new Map<string, number>();
  private readonly probedAt = new Map<string, number>();

  constructor(
    unitsPerSecond: number,
    /** DynamoDB Local itself, for the read-backs. */
    private readonly upstream: DynamoDBClient,
  ) {
    this.budget = new WriteBudget(unitsPerSecond);
  }

  /** Takes the writes' units from every item, or from none: then the items over budget. */
  overBudget(
    items: readonly TouchedItem[],
    ids: readonly string[],
    transactional: boolean,
  ): Set<string> | undefined {
    const costs = new Map<string, number>();
    items.forEach((item, i) => {
      const id = ids[i] as string;
      if (item.writes) costs.set(id, writeUnits(this.sizeOf(item, id), transactional));
    });
    const taken = this.budget.take(costs);
    return taken.ok ? undefined : taken.over;
  }

  /** After DynamoDB Local committed: what each item weighs now. */
  committed(items: readonly TouchedItem[], ids: readonly string[]): void {
    items.forEach((item, i) => {
      const id = ids[i] as string;
      if (item.item) this.remember(id, itemSize(item.item));
      else if (item.writes) this.probe(item, id);
    });
  }

  private sizeOf(item: TouchedItem, id: string): number {
    return item.item ? itemSize(item.item) : (this.sizes.get(id) ?? 1024);
  }

  private remember(id: string, bytes: number): void {
    this.sizes.delete(id);
    this.sizes.set(id, bytes);
    if (this.sizes.size > REMEMBERED_SIZES) {
      this.sizes.delete(this.sizes.keys().next().value as string);
    }
  }

  /** Reads an updated item back (at most once a second per item) to bill its next write right. */
  private probe(item: TouchedItem, id: string): void {
    const now = performance.now();
    if (now - (this.probedAt.get(id) ?? -Infinity) < SIZE_PROBE_INTERVAL_MS) return;
    this.probedAt.set(id, now);
    if (this.probedAt.size > REMEMBERED_SIZES) {
      this.probedAt.delete(this.probedAt.keys().next().value as string);
    }
    this.upstream
      .send(
        new GetItemCommand({ TableName: item.table, Key: item.key as never, ConsistentRead: true }),
      )
      .then(({ Item }) =>
        Item ? this.remember(id, itemSize(Item as unknown as WireItem)) : this.sizes.delete(id),
      )
      .catch(() => {});
  }
}
