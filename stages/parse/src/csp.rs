//! Content security policies, judged by Servo's `content-security-policy` crate (CSP Level 3).

use content_security_policy::{
    CheckResult, CspList, Element, InlineCheckType, PolicyDisposition, PolicySource,
};

/// Where a policy comes from: a page's meta tag, or a response header the code writes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Delivery {
    Meta,
    Header,
}

/// What the policies, all enforced, let scripts do: whether an inline script with no nonce
/// and no matching hash would run (what an injected `<script>` could do), and whether `eval`
/// and `new Function` would.
pub(crate) fn judge<'p>(
    policies: impl IntoIterator<Item = &'p str>,
    delivery: Delivery,
) -> (bool, bool) {
    let source = match delivery {
        Delivery::Meta => PolicySource::Meta,
        Delivery::Header => PolicySource::Header,
    };
    let mut list = CspList(Vec::new());
    for policy in policies {
        list.append(CspList::parse(policy, source, PolicyDisposition::Enforce));
    }
    let (inline, _) = list.should_elements_inline_type_behavior_be_blocked(
        &Element { nonce: None },
        InlineCheckType::Script,
        "",
    );
    let (eval, _) = list.is_js_evaluation_allowed("");
    (inline == CheckResult::Allowed, eval == CheckResult::Allowed)
}
