from __future__ import annotations

import attrs


@attrs.define
class TreeNode:
    value: int
    children: list[TreeNode] = attrs.field(factory=list)
    parent: Optional[TreeNode] = None


attrs.resolve_types(TreeNode)
print(attrs.fields(TreeNode).parent.type)
