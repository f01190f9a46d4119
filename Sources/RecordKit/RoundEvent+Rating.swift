import SposureKit


extension RoundEvent {
    /// The answers given before or after a ladder round (LadderKit's, which
    /// `score` reads back).
    public typealias Rating = RoundRating
}
