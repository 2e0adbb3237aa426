//! Settings read on every call of a generator.

use pgrx::GucSetting;

/// The value of an integer setting, read as `GucSetting::get` reads it less its check of the
/// calling thread: that check costs as much as a uid8_new call's own work, and every caller is
/// already on the backend's thread (inside a function whose pgrx wrapper made that check).
#[inline]
pub fn int(setting: &GucSetting<i32>) -> i32 {
    // SAFETY: the setting's storage, which PostgreSQL writes on this thread only (SET, reloads
    // between statements); an i32 is read whole.
    unsafe { *setting.as_ptr() }
}
