/// Every fuzz target, by name: what `make fuzz` runs and `make test` replays.
enum FuzzTargets {
    static let all: [FuzzTarget] = [
        SealedRecordTarget.target,
        RequestTarget.target,
        SnapshotTarget.target,
        SessionStatusTarget.target,
        QueuedEventTarget.target,
        DeepLinkTarget.target,
        SSOLinkTarget.target,
        TokenResponseTarget.target,
        Base64URLTarget.target,
        FormEncodingTarget.target,
        EventBatchTarget.target,
        DPoPProofTarget.target,
        StepUpProofTarget.target,
        StepUpKeyEnrolmentTarget.target,
    ]

    /// The target called `name`, if there is one.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
