//! The network of the paper (section 4.1), generic over the Burn backend.

use burn::module::Module;
use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
use burn::tensor::Tensor;
use burn::tensor::activation::tanh;
use burn::tensor::backend::Backend;

/// `in -> hidden -> hidden -> 1`, tanh activations, dropout before the output.
#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    hidden1: Linear<B>,
    hidden2: Linear<B>,
    dropout: Dropout,
    output: Linear<B>,
}

impl<B: Backend> Mlp<B> {
    pub fn new(inputs: usize, hidden: usize, dropout: f64, device: &B::Device) -> Self {
        Mlp {
            hidden1: LinearConfig::new(inputs, hidden).init(device),
            hidden2: LinearConfig::new(hidden, hidden).init(device),
            dropout: DropoutConfig::new(dropout).init(),
            output: LinearConfig::new(hidden, 1).init(device),
        }
    }

    /// `[batch, inputs]` -> `[batch, 1]`. Dropout is active only under autodiff.
    pub fn forward(&self, x: Tensor<B, 2>) -> Tensor<B, 2> {
        let x = tanh(self.hidden1.forward(x));
        let x = tanh(self.hidden2.forward(x));
        self.output.forward(self.dropout.forward(x))
    }
}
