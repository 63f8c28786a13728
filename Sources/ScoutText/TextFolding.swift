/// Placeholder: replaced by the ScoutText implementation.
public enum TextFolding {}
