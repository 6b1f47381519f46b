//! What a knowledge page says about itself.
