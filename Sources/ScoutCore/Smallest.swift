extension Sequence {
    /// The first `k` elements in `areInIncreasingOrder`'s order (a strict weak order; ties
    /// keep no particular order unless the order breaks them), sorted: a max-heap holds the
    /// best `k` so far, and each later element that comes before its root replaces it.
    ///
    /// ```swift
    /// [5, 1, 4, 2, 3].smallest(2, by: <)   // [1, 2]
    /// ```
    /// Ranked pages (text matches, listings) keep a page of `k` out of many matches this way.
    ///
    /// - Complexity: O(n log k) comparisons for n elements, O(k) memory.
    @inlinable
    public func smallest(_ k: Int, by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        guard k > 0 else { return [] }
        var heap: [Element] = []
        heap.reserveCapacity(Swift.min(k, underestimatedCount))
        for element in self {
            if heap.count < k {
                heap.append(element)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard areInIncreasingOrder(heap[parent], heap[child]) else { break }
                    heap.swapAt(parent, child)
                    child = parent
                }
            } else if areInIncreasingOrder(element, heap[0]) {
                heap[0] = element
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var last = parent
                    if left < heap.count && areInIncreasingOrder(heap[last], heap[left]) { last = left }
                    if right < heap.count && areInIncreasingOrder(heap[last], heap[right]) { last = right }
                    if last == parent { break }
                    heap.swapAt(parent, last)
                    parent = last
                }
            }
        }
        heap.sort(by: areInIncreasingOrder)
        return heap
    }
}
